analyze aos-vec3 --warp=-1
