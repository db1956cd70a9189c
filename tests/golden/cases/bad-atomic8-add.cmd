analyze bad-atomic8-add.json
