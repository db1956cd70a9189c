analyze soa-vec3
