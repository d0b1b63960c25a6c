"""The standalone app's entry point (packaging/durak.spec): the same ``durak`` command."""

from client.cli.main import main

raise SystemExit(main())
