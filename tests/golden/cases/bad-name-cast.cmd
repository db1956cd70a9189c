analyze bad-name-cast.json
