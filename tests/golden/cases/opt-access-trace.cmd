export trace-column-32x32.json --svg x.svg --access 40
