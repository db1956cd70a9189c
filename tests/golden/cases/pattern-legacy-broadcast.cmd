analyze legacy-broadcast
