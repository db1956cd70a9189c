sweep default --max-pad 300
