import SkeletonSystem
import Testing

/// The kernel's uevent messages as the netlink socket delivers them, and which ones concern a
/// DRM card.
@Suite struct UeventTests {
    func message(_ fields: [String]) -> [UInt8] { fields.flatMap { Array($0.utf8) + [0] } }

    @Test func aHotplugEventOfTheCardIsParsedAndConcernsIt() throws {
        let bytes = message(["change@/devices/pci0000:00/0000:00:02.0/drm/card0", "ACTION=change",
                             "DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0", "SUBSYSTEM=drm", "HOTPLUG=1",
                             "CONNECTOR=36", "DEVNAME=dri/card0", "SEQNUM=1843"])
        let event = try #require(Uevent(bytes))
        #expect(event.action == "change")
        #expect(event.devicePath == "/devices/pci0000:00/0000:00:02.0/drm/card0")
        #expect(event.properties["HOTPLUG"] == "1")
        #expect(event.properties["CONNECTOR"] == "36")
        #expect(event.concernsCard("card0"))
        #expect(!event.concernsCard("card1"))
        #expect(!event.removesCard("card0"))
    }

    @Test func aConnectorDeviceConcernsItsCardButItsRemovalIsNotTheCards() throws {
        let added = try #require(Uevent(message(["add@/devices/pci0000:00/0000:00:02.0/drm/card0/card0-DP-3",
                                                 "ACTION=add", "SUBSYSTEM=drm"])))
        #expect(added.concernsCard("card0"))
        #expect(!added.concernsCard("card1"))
        let removed = try #require(Uevent(message(["remove@/devices/pci0000:00/0000:00:02.0/drm/card0/card0-DP-3",
                                                   "ACTION=remove", "SUBSYSTEM=drm"])))
        #expect(removed.concernsCard("card0"))
        #expect(!removed.removesCard("card0"))
    }

    @Test func theCardsRemovalIsTold() throws {
        let event = try #require(Uevent(message(["remove@/devices/pci0000:00/0000:00:02.0/drm/card0", "ACTION=remove",
                                                 "SUBSYSTEM=drm", "DEVNAME=dri/card0"])))
        #expect(event.removesCard("card0"))
        #expect(!event.removesCard("card1"))
    }

    @Test func otherSubsystemsAndUdevsOwnMessagesAreNotTheCards() throws {
        let usb = try #require(Uevent(message(["add@/devices/pci0000:00/usb1/1-1", "ACTION=add", "SUBSYSTEM=usb",
                                               "DEVNAME=bus/usb/001/002"])))
        #expect(!usb.concernsCard("card0"))
        let renderNode = try #require(Uevent(message(["change@/devices/pci0000:00/0000:00:02.0/drm/renderD128",
                                                      "SUBSYSTEM=drm", "DEVNAME=dri/renderD128"])))
        #expect(!renderNode.concernsCard("card0"))
        #expect(Uevent(message(["libudev", "ACTION=change"])) == nil, "udev's rebroadcasts have no ACTION@DEVPATH header")
        #expect(Uevent([UInt8]()) == nil)
        #expect(Uevent(message(["@/devices/x"])) == nil)
        #expect(Uevent(message(["change@relative/path"])) == nil)
    }
}
