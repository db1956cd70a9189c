sweep struct-mixed --max-pad 4
