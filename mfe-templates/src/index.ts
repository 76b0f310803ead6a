// Asynchronous boundary: the shared modules (React, router, ...) are negotiated before bootstrap runs.
void import('./bootstrap');
