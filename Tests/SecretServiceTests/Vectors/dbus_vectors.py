#!/usr/bin/env python3
"""Writes dbus-jeepney.json: D-Bus messages of the Secret Service, serialised by jeepney (a
Python D-Bus implementation nobody here wrote), for DBusMessageTests.

    python3 -m venv /tmp/jv && /tmp/jv/bin/pip install jeepney==0.9.0
    /tmp/jv/bin/python Tests/SecretServiceTests/Vectors/dbus_vectors.py > Tests/SecretServiceTests/Vectors/dbus-jeepney.json
"""
import json

import jeepney
from jeepney import DBusAddress, Endianness, new_error, new_method_call, new_method_return

service = DBusAddress("/org/freedesktop/secrets", bus_name="org.freedesktop.secrets", interface="org.freedesktop.Secret.Service")
collection = DBusAddress(
    "/org/freedesktop/secrets/aliases/default", bus_name="org.freedesktop.secrets", interface="org.freedesktop.Secret.Collection")
properties = {
    "org.freedesktop.Secret.Item.Label": ("s", "swift-haapi bench: tokens.json"),
    "org.freedesktop.Secret.Item.Attributes": ("a{ss}", {"application": "swift-haapi", "key": "tokens.json"}),
}
secret = ("/org/freedesktop/secrets/session/s1", b"", b'{"a":1}', "text/plain; charset=utf8")
search = new_method_call(service, "SearchItems", "a{ss}", ({"key": "k"},))
search.header.serial = 3
found = new_method_return(search, "aoao", (["/org/freedesktop/secrets/collection/login/1", "/org/freedesktop/secrets/collection/login/2"], []))
found_big_endian = new_method_return(search, "aoao", (["/org/freedesktop/secrets/collection/login/1", "/org/freedesktop/secrets/collection/login/2"], []))
found_big_endian.header.endianness = Endianness.big
unknown = new_error(search, "org.freedesktop.DBus.Error.ServiceUnknown", "s", ("The name org.freedesktop.secrets was not provided by any .service files",))

print(json.dumps({
    "jeepney": jeepney.__version__,
    "openSession": new_method_call(service, "OpenSession", "sv", ("plain", ("s", ""))).serialise(serial=2).hex(),
    "createItem": new_method_call(collection, "CreateItem", "a{sv}(oayays)b", (properties, secret, True)).serialise(serial=7).hex(),
    "searchReply": found.serialise(serial=9).hex(),
    "searchReplyBigEndian": found_big_endian.serialise(serial=9).hex(),
    "serviceUnknown": unknown.serialise(serial=10).hex(),
}, indent=2))
