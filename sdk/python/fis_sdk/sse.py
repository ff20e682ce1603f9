"""Server-Sent Events read from an HTTP response, line by line as they arrive."""
import json
from typing import Any, BinaryIO, Iterator, List, Tuple


def read_events(response: BinaryIO) -> Iterator[Tuple[str, Any]]:
    """The events of an event-stream response as (name, data parsed as JSON), each as soon as it is complete. It
    follows the format's field rules: `data` on several lines, one optional space after the colon, comments
    (keep-alives) ignored, an event cut off by the end of the stream dropped."""
    name = "message"
    data: List[str] = []
    for raw in response:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                text = "\n".join(data)
                yield name, (json.loads(text) if text else None)
            name, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
