analyze fft-butterfly
