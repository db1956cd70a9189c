sweep stencil-16x16.json
