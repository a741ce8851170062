"""The profiles of SCHEMA.md §3 (DESIGN.md D3): a profile is data, the Dynamo config
values the oracle sets in the child before running a fixture. Fixtures never set them.
"""

# name -> torch._dynamo.config values; "all" in a header means every row, in this order.
PROFILES: dict[str, dict[str, bool]] = {
    "torch-2.13": {"nested_graph_breaks": False, "automatic_dynamic_shapes": False},
    "torch-2.13-ngb": {"nested_graph_breaks": True, "automatic_dynamic_shapes": False},
}

# The config keys a profile owns; the lint refuses a fixture that assigns one.
PROFILE_KEYS = frozenset(k for config in PROFILES.values() for k in config)


def apply(profile: str) -> None:
    """Sets the profile's values in torch._dynamo.config (in the forked child only)."""
    import torch._dynamo.config as config

    for key, value in PROFILES[profile].items():
        setattr(config, key, value)
