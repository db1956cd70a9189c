import nofile.cu --block 32
