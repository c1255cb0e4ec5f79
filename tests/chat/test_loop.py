"""The bot's event loop: uvloop where it is installed, asyncio's own otherwise."""

from __future__ import annotations

import asyncio
import builtins

import pytest

from bot.support.loop import loop_name, use_uvloop


def test_new_loops_are_uvloops_once_chosen():
    uvloop = pytest.importorskip("uvloop")
    before = asyncio.get_event_loop_policy()
    try:
        assert use_uvloop()
        loop = asyncio.new_event_loop()
        try:
            assert isinstance(loop, uvloop.Loop)
        finally:
            loop.close()
        assert loop_name() == "uvloop"
    finally:
        asyncio.set_event_loop_policy(before)
    assert loop_name() == "asyncio"


def test_without_uvloop_asyncio_stays(monkeypatch):
    real_import = builtins.__import__

    def no_uvloop(name, *args, **kwargs):
        if name == "uvloop":
            raise ImportError("not installed")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvloop)
    before = asyncio.get_event_loop_policy()
    assert not use_uvloop()
    assert asyncio.get_event_loop_policy() is before
