// The async boundary module federation needs: shared modules are negotiated before anything imports React.
import('./bootstrap');
