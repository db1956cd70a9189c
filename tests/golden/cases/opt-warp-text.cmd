analyze default --warp abc
