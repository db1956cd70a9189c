analyze default --warp
