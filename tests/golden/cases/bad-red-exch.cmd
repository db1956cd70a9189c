analyze bad-red-exch.json
