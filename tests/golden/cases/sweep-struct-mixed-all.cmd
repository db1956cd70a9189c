sweep struct-mixed --max-pad 2 --all
