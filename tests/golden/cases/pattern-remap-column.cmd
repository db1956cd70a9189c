analyze remap-column
