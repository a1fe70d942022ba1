import scorpion


def test_version_is_set() -> None:
    assert scorpion.__version__.count(".") == 2
