"""One recognizer per PII entity type, each a small class in the Presidio style."""

from redline.screen.detectors.pii_recognizers._base import PatternRecognizer
from redline.screen.detectors.pii_recognizers.credit_card import CreditCardRecognizer
from redline.screen.detectors.pii_recognizers.email import EmailRecognizer
from redline.screen.detectors.pii_recognizers.email_obfuscated import ObfuscatedEmailRecognizer
from redline.screen.detectors.pii_recognizers.iban import IbanRecognizer
from redline.screen.detectors.pii_recognizers.ip_address import IpAddressRecognizer
from redline.screen.detectors.pii_recognizers.phone import PhoneRecognizer
from redline.screen.detectors.pii_recognizers.street_address import StreetAddressRecognizer
from redline.screen.detectors.pii_recognizers.us_ssn import UsSsnRecognizer

__all__ = [
    "CreditCardRecognizer",
    "EmailRecognizer",
    "IbanRecognizer",
    "IpAddressRecognizer",
    "ObfuscatedEmailRecognizer",
    "PatternRecognizer",
    "PhoneRecognizer",
    "StreetAddressRecognizer",
    "UsSsnRecognizer",
]
