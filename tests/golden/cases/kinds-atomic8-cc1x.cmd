analyze kinds-atomic8-cc1x.json
