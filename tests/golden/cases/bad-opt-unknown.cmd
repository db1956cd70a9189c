list --frob
