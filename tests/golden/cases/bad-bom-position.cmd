analyze bad-bom-position.json
