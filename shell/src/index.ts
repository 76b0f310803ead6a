// Asynchronous boundary: Module Federation negotiates the shared modules before bootstrap runs.
import('./bootstrap');
