// Checks of the jobs rules register themselves on import.
