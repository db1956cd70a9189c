import import-k.cu --block 32 -o no-such-folder/k.json
