analyze ../../data/record/modern-calib_forms.json --summary
