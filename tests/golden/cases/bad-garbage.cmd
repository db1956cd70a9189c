analyze bad-garbage.json
