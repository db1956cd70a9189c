measure aos-vec3 --access 1
