pytest_plugins = ["tests.standin.fixtures"]
