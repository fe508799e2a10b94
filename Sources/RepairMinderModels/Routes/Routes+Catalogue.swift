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

    public enum Dashboard {
        public static let stats = catalogue(
            .get, "/api/dashboard/stats", "Device counts, revenue, comparisons", query: [.scope, .period])
        public static let enquiryStats = catalogue(.get, "/api/dashboard/enquiry-stats", "Enquiry statistics")
        public static let lifecycle = catalogue(.get, "/api/dashboard/lifecycle", "Lifecycle metrics")
        public static let categoryBreakdown = catalogue(.get, "/api/dashboard/category-breakdown", "Revenue by category")
        public static let activityLog = catalogue(.get, "/api/dashboard/activity-log", "Recent activity feed")
        public static let bookingHeatmap = catalogue(.get, "/api/dashboard/booking-heatmap", "Booking patterns")
        public static let buybackStats = catalogue(.get, "/api/dashboard/buyback-stats", "Buyback statistics")
        public static let bookingsByTime = catalogue(.get, "/api/dashboard/bookings-by-time", "Bookings over time")

        static let all: [AnyRoute] = [
            stats.erased, enquiryStats.erased, lifecycle.erased, categoryBreakdown.erased, activityLog.erased,
            bookingHeatmap.erased, buybackStats.erased, bookingsByTime.erased,
        ]
    }

    public enum Devices {
        public static let list = catalogue(
            .get, "/api/devices", "All devices of the company, paginated", query: [.page, .limit, .status],
            format: .paginatedEnvelope, EmptyPayload.self, [JSONValue].self)
        public static let myQueue = catalogue(.get, "/api/devices/my-queue", "Devices assigned to the caller")
        public static let myActiveWork = catalogue(.get, "/api/devices/my-active-work", "The caller's active work")
        public static let ofOrder = catalogue(.get, "/api/orders/{orderId}/devices", "Devices of an order")
        public static let add = catalogue(
            .post, "/api/orders/{orderId}/devices", "Add a device to an order", JSONValue.self)
        public static let detail = catalogue(.get, "/api/orders/{orderId}/devices/{deviceId}", "One device")
        public static let update = catalogue(
            .patch, "/api/orders/{orderId}/devices/{deviceId}", "Update a device", JSONValue.self)
        public static let delete = catalogue(.delete, "/api/orders/{orderId}/devices/{deviceId}", "Delete a device")
        public static let updateStatus = catalogue(
            .patch, "/api/orders/{orderId}/devices/{deviceId}/status", "Update a device's status", JSONValue.self)
        public static let actions = catalogue(
            .get, "/api/orders/{orderId}/devices/{deviceId}/actions", "Actions available on a device")
        public static let executeAction = catalogue(
            .post, "/api/orders/{orderId}/devices/{deviceId}/action", "Execute an action on a device", JSONValue.self)

        static let all: [AnyRoute] = [
            list.erased, myQueue.erased, myActiveWork.erased, ofOrder.erased, add.erased, detail.erased,
            update.erased, delete.erased, updateStatus.erased, actions.erased, executeAction.erased,
        ]
    }

    public enum Orders {
        public static let list = catalogue(
            .get, "/api/orders", "Orders, paginated", query: [.page, .limit, .status], format: .paginatedEnvelope,
            EmptyPayload.self, [JSONValue].self)
        public static let create = catalogue(.post, "/api/orders", "Create an order", JSONValue.self)
        public static let detail = catalogue(.get, "/api/orders/{id}", "One order")
        public static let update = catalogue(.patch, "/api/orders/{id}", "Update an order", JSONValue.self)
        public static let items = catalogue(.get, "/api/orders/{id}/items", "An order's items")
        public static let addItem = catalogue(.post, "/api/orders/{id}/items", "Add an item", JSONValue.self)
        public static let updateItem = catalogue(
            .patch, "/api/orders/{id}/items/{itemId}", "Update an item", JSONValue.self)
        public static let deleteItem = catalogue(.delete, "/api/orders/{id}/items/{itemId}", "Delete an item")
        public static let payments = catalogue(.get, "/api/orders/{id}/payments", "An order's payments")
        public static let addPayment = catalogue(.post, "/api/orders/{id}/payments", "Add a payment", JSONValue.self)
        public static let deletePayment = catalogue(.delete, "/api/orders/{id}/payments/{paymentId}", "Delete a payment")
        public static let signatures = catalogue(.get, "/api/orders/{id}/signatures", "An order's signatures")
        public static let captureSignature = catalogue(
            .post, "/api/orders/{id}/signatures", "Capture a signature", JSONValue.self)
        public static let sendQuote = catalogue(
            .post, "/api/orders/{id}/send-quote", "Send the quote to the customer", JSONValue.self)
        public static let authorize = catalogue(.post, "/api/orders/{id}/authorize", "Authorise the order", JSONValue.self)
        public static let despatch = catalogue(.post, "/api/orders/{id}/despatch", "Mark the order despatched", JSONValue.self)
        public static let collect = catalogue(.post, "/api/orders/{id}/collect", "Mark the order collected", JSONValue.self)

        static let all: [AnyRoute] = [
            list.erased, create.erased, detail.erased, update.erased, items.erased, addItem.erased,
            updateItem.erased, deleteItem.erased, payments.erased, addPayment.erased, deletePayment.erased,
            signatures.erased, captureSignature.erased, sendQuote.erased, authorize.erased, despatch.erased,
            collect.erased,
        ]
    }

    public enum Clients {
        public static let list = catalogue(
            .get, "/api/clients", "Clients, paginated", query: [.page, .limit, .search], format: .paginatedEnvelope,
            EmptyPayload.self, [JSONValue].self)
        public static let create = catalogue(.post, "/api/clients", "Create a client", JSONValue.self)
        public static let detail = catalogue(.get, "/api/clients/{id}", "One client")
        public static let update = catalogue(.patch, "/api/clients/{id}", "Update a client", JSONValue.self)
        public static let delete = catalogue(.delete, "/api/clients/{id}", "Soft-delete a client")
        public static let search = catalogue(
            .get, "/api/clients/search", "Search clients", query: [QueryParameter("q", "Search text")])
        public static let export = catalogue(.get, "/api/clients/export", "Export clients")
        public static let `import` = catalogue(.post, "/api/clients/import", "Import clients", JSONValue.self)

        static let all: [AnyRoute] = [
            list.erased, create.erased, detail.erased, update.erased, delete.erased, search.erased, export.erased,
            `import`.erased,
        ]
    }

    public enum Tickets {
        public static let list = catalogue(
            .get, "/api/tickets", "Tickets, paginated", query: [.page, .limit, .status], format: .paginatedEnvelope,
            EmptyPayload.self, [JSONValue].self)
        public static let create = catalogue(.post, "/api/tickets", "Create a ticket", JSONValue.self)
        public static let detail = catalogue(.get, "/api/tickets/{id}", "One ticket")
        public static let update = catalogue(.patch, "/api/tickets/{id}", "Update a ticket", JSONValue.self)
        public static let reply = catalogue(.post, "/api/tickets/{id}/reply", "Send a reply", JSONValue.self)
        public static let addNote = catalogue(.post, "/api/tickets/{id}/note", "Add an internal note", JSONValue.self)
        public static let resolve = catalogue(.post, "/api/tickets/{id}/resolve", "Resolve a ticket", JSONValue.self)
        public static let reassign = catalogue(.post, "/api/tickets/{id}/reassign", "Reassign a ticket", JSONValue.self)
        public static let createEnquiry = catalogue(
            .post, "/api/tickets/enquiry", "Create an enquiry (public)", credential: .none, JSONValue.self)

        static let all: [AnyRoute] = [
            list.erased, create.erased, detail.erased, update.erased, reply.erased, addNote.erased, resolve.erased,
            reassign.erased, createEnquiry.erased,
        ]
    }

    public enum CustomerPortal {
        public static let orders = catalogue(.get, "/api/customer/orders", "The customer's orders", credential: .customer)
        public static let order = catalogue(
            .get, "/api/customer/orders/{orderId}", "One of the customer's orders", credential: .customer)
        public static let approve = catalogue(
            .post, "/api/customer/orders/{orderId}/approve", "Approve a quote or device", credential: .customer,
            JSONValue.self)
        public static let reply = catalogue(
            .post, "/api/customer/orders/{orderId}/reply", "Send a message to the shop", credential: .customer,
            JSONValue.self)
        public static let invoice = catalogue(
            .get, "/api/customer/orders/{orderId}/invoice", "The invoice PDF", credential: .customer,
            format: .binary(["application/pdf"]), EmptyPayload.self, BinaryFile.self)
        public static let deviceImage = catalogue(
            .get, "/api/customer/devices/{deviceId}/images/{imageId}/file", "A device image",
            credential: .customer, format: .binary(["image/jpeg", "image/png"]), EmptyPayload.self, BinaryFile.self)

        static let all: [AnyRoute] = [
            orders.erased, order.erased, approve.erased, reply.erased, invoice.erased, deviceImage.erased,
        ]
    }
}
