// Checks of the graphql rules register themselves on import.
