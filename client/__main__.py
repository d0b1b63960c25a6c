from client.cli.main import main

raise SystemExit(main())
