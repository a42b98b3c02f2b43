"""Test-wide settings. Hypothesis runs without its per-example time limit: speed is measured in `benchmarks/`,
never asserted in tests (a loaded CI machine or coverage tracing must not turn a correct program red); the
too-slow health check goes for the same reason."""

from hypothesis import HealthCheck, settings

settings.register_profile("project", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("project")
