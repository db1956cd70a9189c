analyze default --arch sm_13
