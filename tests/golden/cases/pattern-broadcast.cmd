analyze broadcast
