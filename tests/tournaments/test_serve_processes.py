"""``manage.py serve --processes P``: P waitress processes on consecutive ports."""
import sys

import pytest
from django.core.management import CommandError, call_command

from tournaments.management.commands.serve import worker_commands


def test_worker_commands_use_consecutive_ports_and_the_same_options():
    commands = worker_commands(host="127.0.0.1", port=8001, processes=3, threads=8, connection_limit=500)
    assert [c[c.index("--port") + 1] for c in commands] == ["8001", "8002", "8003"]
    for command in commands:
        assert command[0] == sys.executable
        assert command[1].endswith("manage.py") and command[2] == "serve"
        assert command[command.index("--threads") + 1] == "8"
        assert command[command.index("--connection-limit") + 1] == "500"
        assert command[command.index("--host") + 1] == "127.0.0.1"


def test_worker_commands_keep_the_defaults_when_not_given():
    (command,) = worker_commands(host="0.0.0.0", port=9000, processes=1)
    assert "--threads" not in command and "--connection-limit" not in command


def test_zero_processes_is_refused():
    with pytest.raises(CommandError, match="--processes"):
        call_command("serve", "--processes", "0")
