from bot.core.abuse import Limiter


def test_limit_per_key_with_a_sliding_window():
    now = [0.0]
    lim = Limiter(2, 60.0, clock=lambda: now[0])
    assert lim.hit(("g", 1)) == 0 and lim.hit(("g", 1)) == 0
    assert lim.hit(("g", 1)) == 60.0  # third within the window: refused, told how long to wait
    assert lim.hit(("g", 2)) == 0  # another person is not affected
    now[0] = 30.0
    assert lim.hit(("g", 1)) == 30.0
    now[0] = 60.0  # the first use left the window
    assert lim.hit(("g", 1)) == 0
    assert lim.hit(("g", 1)) == 0  # the second use (t=0) left too: room for one more
    assert lim.hit(("g", 1)) > 0


def test_refused_uses_are_not_counted_and_forgotten_keys_do_not_pile_up():
    now = [0.0]
    lim = Limiter(1, 10.0, clock=lambda: now[0])
    assert lim.hit(("k",)) == 0
    for _ in range(5):
        assert lim.hit(("k",)) > 0
    now[0] = 10.0
    assert lim.hit(("k",)) == 0  # refusals did not extend the wait
    now[0] = 100.0
    for i in range(100):
        lim.retry_after(("other", i))
    assert len(lim._hits) <= 1
