print("haapi")
