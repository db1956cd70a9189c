histogram-skewed --snapshot --keys 's  '
