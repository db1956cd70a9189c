analyze kinds-atomic4-cc1x.json --summary
