// Checks of the auth rules register themselves on import.
