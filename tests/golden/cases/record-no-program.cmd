record --kernel k
