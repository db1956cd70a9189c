analyze trace-inactive-lanes.json
