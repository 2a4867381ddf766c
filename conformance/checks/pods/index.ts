// Checks of the pods rules register themselves on import.
