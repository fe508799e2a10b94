/// The rest of seed 004's endpoint catalogue (docs/API.md §8): the real backend serves these,
/// this server does not yet. The SDK sends them; quarantine treats them as staff endpoints.
/// Bodies and answers are untyped JSON until feature models exist (decode them into an app's
/// own types with `JSONValue.decoded(as:)`); lists are paginated envelopes with seed 004's
/// filters, and every action POST takes an optional body.
extension Routes {
    /// Shorthand for a client-only catalogue route.
    static func catalogue<Request: WireType, Response: WireType>(
        _ method: HTTPMethod, _ path: RoutePath, _ summary: String, credential: RouteCredential = .staff,
        query: [QueryParameter] = [], format: ResponseFormat = .envelope,
        _ request: Request.Type = EmptyPayload.self, _ response: Response.Type = JSONValue.self
    ) -> Route<Request, Response> {
        Route(method, path, credential, summary, availability: .clientOnly, format: format, query: query)
    }

    public struct Dashboard: RouteFeature {
        public static let name = "Dashboard"
        public let stats = catalogue(
            .get, "/api/dashboard/stats", "Device counts, revenue, comparisons", query: [.scope, .period])
        public let enquiryStats = catalogue(.get, "/api/dashboard/enquiry-stats", "Enquiry statistics")
        public let lifecycle = catalogue(.get, "/api/dashboard/lifecycle", "Lifecycle metrics")
        public let categoryBreakdown = catalogue(.get, "/api/dashboard/category-breakdown", "Revenue by category")
        public let activityLog = catalogue(.get, "/api/dashboard/activity-log", "Recent activity feed")
        public let bookingHeatmap = catalogue(.get, "/api/dashboard/booking-heatmap", "Booking patterns")
        public let buybackStats = catalogue(.get, "/api/dashboard/buyback-stats", "Buyback statistics")
        public let bookingsByTime = catalogue(.get, "/api/dashboard/bookings-by-time", "Bookings over time")
    }
    /// Dashboard: the routes of this feature.
    public static let dashboard = Dashboard()

    public struct Devices: RouteFeature {
        public static let name = "Devices"
        public let list = catalogue(
            .get, "/api/devices", "All devices of the company, paginated", query: [.page, .limit, .status],
            format: .paginatedEnvelope, EmptyPayload.self, [JSONValue].self)
        public let myQueue = catalogue(.get, "/api/devices/my-queue", "Devices assigned to the caller")
        public let myActiveWork = catalogue(.get, "/api/devices/my-active-work", "The caller's active work")
        public let ofOrder = catalogue(.get, "/api/orders/{orderId}/devices", "Devices of an order")
        public let add = catalogue(
            .post, "/api/orders/{orderId}/devices", "Add a device to an order", JSONValue.self)
        public let detail = catalogue(.get, "/api/orders/{orderId}/devices/{deviceId}", "One device")
        public let update = catalogue(
            .patch, "/api/orders/{orderId}/devices/{deviceId}", "Update a device", JSONValue.self)
        public let delete = catalogue(.delete, "/api/orders/{orderId}/devices/{deviceId}", "Delete a device")
        public let updateStatus = catalogue(
            .patch, "/api/orders/{orderId}/devices/{deviceId}/status", "Update a device's status", JSONValue.self)
        public let actions = catalogue(
            .get, "/api/orders/{orderId}/devices/{deviceId}/actions", "Actions available on a device")
        public let executeAction = catalogue(
            .post, "/api/orders/{orderId}/devices/{deviceId}/action", "Execute an action on a device", JSONValue.self)
    }
    /// Devices: the routes of this feature.
    public static let devices = Devices()

    public struct Orders: RouteFeature {
        public static let name = "Orders"
        public let list = catalogue(
            .get, "/api/orders", "Orders, paginated", query: [.page, .limit, .status], format: .paginatedEnvelope,
            EmptyPayload.self, [JSONValue].self)
        public let create = catalogue(.post, "/api/orders", "Create an order", JSONValue.self)
        public let detail = catalogue(.get, "/api/orders/{id}", "One order")
        public let update = catalogue(.patch, "/api/orders/{id}", "Update an order", JSONValue.self)
        public let items = catalogue(.get, "/api/orders/{id}/items", "An order's items")
        public let addItem = catalogue(.post, "/api/orders/{id}/items", "Add an item", JSONValue.self)
        public let updateItem = catalogue(
            .patch, "/api/orders/{id}/items/{itemId}", "Update an item", JSONValue.self)
        public let deleteItem = catalogue(.delete, "/api/orders/{id}/items/{itemId}", "Delete an item")
        public let payments = catalogue(.get, "/api/orders/{id}/payments", "An order's payments")
        public let addPayment = catalogue(.post, "/api/orders/{id}/payments", "Add a payment", JSONValue.self)
        public let deletePayment = catalogue(.delete, "/api/orders/{id}/payments/{paymentId}", "Delete a payment")
        public let signatures = catalogue(.get, "/api/orders/{id}/signatures", "An order's signatures")
        public let captureSignature = catalogue(
            .post, "/api/orders/{id}/signatures", "Capture a signature", JSONValue.self)
        public let sendQuote = catalogue(
            .post, "/api/orders/{id}/send-quote", "Send the quote to the customer", JSONValue.self)
        public let authorize = catalogue(.post, "/api/orders/{id}/authorize", "Authorise the order", JSONValue.self)
        public let despatch = catalogue(.post, "/api/orders/{id}/despatch", "Mark the order despatched", JSONValue.self)
        public let collect = catalogue(.post, "/api/orders/{id}/collect", "Mark the order collected", JSONValue.self)
    }
    /// Orders: the routes of this feature.
    public static let orders = Orders()


    public struct Tickets: RouteFeature {
        public static let name = "Tickets"
        public let list = catalogue(
            .get, "/api/tickets", "Tickets, paginated", query: [.page, .limit, .status], format: .paginatedEnvelope,
            EmptyPayload.self, [JSONValue].self)
        public let create = catalogue(.post, "/api/tickets", "Create a ticket", JSONValue.self)
        public let detail = catalogue(.get, "/api/tickets/{id}", "One ticket")
        public let update = catalogue(.patch, "/api/tickets/{id}", "Update a ticket", JSONValue.self)
        public let reply = catalogue(.post, "/api/tickets/{id}/reply", "Send a reply", JSONValue.self)
        public let addNote = catalogue(.post, "/api/tickets/{id}/note", "Add an internal note", JSONValue.self)
        public let resolve = catalogue(.post, "/api/tickets/{id}/resolve", "Resolve a ticket", JSONValue.self)
        public let reassign = catalogue(.post, "/api/tickets/{id}/reassign", "Reassign a ticket", JSONValue.self)
        public let createEnquiry = catalogue(
            .post, "/api/tickets/enquiry", "Create an enquiry (public)", credential: .none, JSONValue.self)
    }
    /// Tickets: the routes of this feature.
    public static let tickets = Tickets()

    public struct CustomerPortal: RouteFeature {
        public static let name = "Customer portal"
        public let orders = catalogue(.get, "/api/customer/orders", "The customer's orders", credential: .customer)
        public let order = catalogue(
            .get, "/api/customer/orders/{orderId}", "One of the customer's orders", credential: .customer)
        public let approve = catalogue(
            .post, "/api/customer/orders/{orderId}/approve", "Approve a quote or device", credential: .customer,
            JSONValue.self)
        public let reply = catalogue(
            .post, "/api/customer/orders/{orderId}/reply", "Send a message to the shop", credential: .customer,
            JSONValue.self)
        public let invoice = catalogue(
            .get, "/api/customer/orders/{orderId}/invoice", "The invoice PDF", credential: .customer,
            format: .binary(["application/pdf"]), EmptyPayload.self, BinaryFile.self)
        public let deviceImage = catalogue(
            .get, "/api/customer/devices/{deviceId}/images/{imageId}/file", "A device image",
            credential: .customer, format: .binary(["image/jpeg", "image/png"]), EmptyPayload.self, BinaryFile.self)
    }
    /// Customer portal: the routes of this feature.
    public static let customerPortal = CustomerPortal()
}
