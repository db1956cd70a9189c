analyze aos-vec3
