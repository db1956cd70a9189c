analyze bad-hostile-key.json
