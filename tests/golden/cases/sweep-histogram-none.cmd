sweep histogram-skewed --max-pad 2
