analyze worst-other-warp.json
