analyze legacy-stride4
