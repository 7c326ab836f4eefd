"""The one exception the rules raise for an illegal command."""


class RuleError(Exception):
    """A command the rules refuse.

    `code` names the reason (the web layer turns it into a translated sentence);
    `params` fill that sentence's placeholders.
    """

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params
