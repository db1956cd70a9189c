analyze kinds-atomic-popc.json --warp 0
