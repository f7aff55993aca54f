"""The engine's attention for a run: the cost that chooses it, the cached verdict, and (on the
embedded model) the backend that measures once, switches, and keeps a setting it was given."""

from __future__ import annotations

from pathlib import Path

import pytest

from prism_edge.backends import attention, native
from prism_edge.backends.attention import Rates, Verdict

# rates measured on the 2-core hosts here (benchmarks/results/attention_choice.txt): SmolLM2
# prefills faster with flash attention and decodes 2.2x slower; Gemma 3 is faster with it at both
SMOLLM2 = Verdict(flash=Rates(prefill=299, decode=35), plain=Rates(prefill=253, decode=72))
GEMMA3 = Verdict(flash=Rates(prefill=576, decode=44), plain=Rates(prefill=552, decode=42))


@pytest.fixture(autouse=True)
def cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_run_that_only_prefills_takes_the_faster_prefill() -> None:
    assert SMOLLM2.flash_for(0.0)
    slower_prefill = Verdict(flash=Rates(200, 90), plain=Rates(300, 60))
    assert not slower_prefill.flash_for(0.0)


def test_a_run_that_decodes_takes_the_cheaper_setting_per_prompt_token() -> None:
    # SmolLM2: the decode saved outweighs the prefill lost from about 0.02 decoded per token
    assert not SMOLLM2.flash_for(0.08)
    assert not SMOLLM2.flash_for(0.39)
    assert SMOLLM2.flash_for(0.005)
    assert SMOLLM2.flash.seconds(0.08) == pytest.approx(1 / 299 + 0.08 / 35)
    # Gemma 3: flash attention is the faster at both, whatever the run decodes
    assert all(GEMMA3.flash_for(share) for share in (0.0, 0.08, 0.39, 1.0))


def test_a_tie_keeps_flash_attention() -> None:
    same = Verdict(flash=Rates(300, 50), plain=Rates(300, 50))
    assert same.flash_for(0.08)


def test_the_description_names_the_choice_and_the_rates() -> None:
    text = SMOLLM2.describe(0.08)
    assert text.startswith("flash attention off")
    assert "35 tok/s with it, 72 without" in text and "prefill 299 and 253" in text


def test_verdicts_round_trip_and_a_bad_entry_is_none() -> None:
    assert Verdict.from_dict(SMOLLM2.to_dict()) == SMOLLM2
    assert Verdict.from_dict({"depth": 1024, "flash": [1, 2]}) is None
    assert Verdict.from_dict({"depth": 1024, "flash": [0, 2], "plain": [1, 2]}) is None
    assert Verdict.from_dict({"depth": "deep", "flash": [1, 2], "plain": [1, 2]}) is None
    assert Verdict.from_dict("not an entry") is None


def test_a_saved_verdict_is_found_again_under_its_key(tmp_path: Path) -> None:
    model = tmp_path / "model.gguf"
    model.write_bytes(b"GGUF" + bytes(64))
    key = attention.cache_key(model, {"n_threads": 2, "n_batch": 512})
    assert attention.cached(key) is None
    attention.save(key, SMOLLM2, model)
    assert attention.cached(key) == SMOLLM2
    # other settings, or a changed model file, are another key
    assert attention.cache_key(model, {"n_threads": 1, "n_batch": 512}) != key
    model.write_bytes(b"GGUF" + bytes(65))
    assert attention.cache_key(model, {"n_threads": 2, "n_batch": 512}) != key


def test_a_cache_file_that_is_not_json_is_no_verdict(cache_folder: Path) -> None:
    path = native.cache_path(attention.CACHE_FILE)
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    assert attention.cached("any") is None
    attention.save("key", GEMMA3, Path("model.gguf"))
    assert attention.cached("key") == GEMMA3


# --- on the embedded model ---------------------------------------------------------------------


@pytest.mark.model
def test_the_backend_measures_once_switches_and_keeps_a_given_setting(
    monkeypatch: pytest.MonkeyPatch, cache_folder: Path
) -> None:
    from prism_edge.backends.llama_cpp import LlamaCppBackend
    from prism_edge.prompts import Part, Prompt

    backend = LlamaCppBackend(n_ctx=512)
    assert backend.flash_attn and backend.engine == "flash attention on"
    # a run that only scores: flash attention, nothing measured
    assert backend.suit(0.0) is None
    assert backend.flash_attn and not native.cache_path(attention.CACHE_FILE).exists()

    note = backend.suit(0.08)
    verdict = next(iter(native.read_cache(native.cache_path(attention.CACHE_FILE)).values()))
    measured = Verdict.from_dict(verdict)
    assert measured is not None and note == measured.describe(0.08)
    assert backend.flash_attn == measured.flash_for(0.08)
    # the switched context answers as a fresh one does
    prompt = Prompt((Part("Mowgli lived with the wolves. Who raised Mowgli?", "document"),))
    assert backend.complete(prompt, max_tokens=8).text
    # back to a scoring run: flash attention again
    backend.suit(0.0)
    assert backend.flash_attn and backend.complete(prompt, max_tokens=8).text
    backend.llama.close()

    # a second backend of the same model and settings reads the verdict, measuring nothing
    again = LlamaCppBackend(n_ctx=512)

    def measure() -> Verdict:
        raise AssertionError("measured again")

    monkeypatch.setattr(again, "_measure_attention", measure)
    assert again.suit(0.08) == note

    # a smaller context for a run that needs less, with the attention it had; never larger
    again.fit(256)
    assert (
        again.n_ctx == 256
        and again.llama.n_ctx() == 256
        and again.flash_attn == measured.flash_for(0.08)
    )
    assert again.complete(prompt, max_tokens=8).text
    again.fit(1024)
    assert again.n_ctx == 256
    again.llama.close()

    # a setting the user gave is kept, whatever the run
    given = LlamaCppBackend(n_ctx=512, flash_attn=True)
    assert given.suit(0.39) is None and given.flash_attn
    given.llama.close()
